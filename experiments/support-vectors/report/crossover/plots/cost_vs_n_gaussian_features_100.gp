# kexp plot; run `gnuplot cost_vs_n_gaussian_features_100.gp` here to redraw cost_vs_n_gaussian_features_100.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_gaussian_features_100.svg'
set title 'time against n: gaussian features=100 on blobs'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'svc: bias = regularized.' at screen 0.01, screen 0.0845 left font ',12'
set label 101 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0525 left font ',12'
set label 102 'The primal map''s dimension D = 100 is below every n drawn.' at screen 0.01, screen 0.0204 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('250' 250, '500' 500, '1000' 1000, '2000' 2000, '4000' 4000, '10000' 10000, '20000' 20000, '40000' 40000, '100000' 100000)
set logscale x
set logscale y
$line0 << EOD
250 0.000367004 0.000347083 0.00078864
500 0.000798628 0.0007780139999999999 0.001211504
1000 0.00140613 0.001343157 0.002089804
2000 0.003031812 0.00266779 0.0042583790000000005
4000 0.006189078000000001 0.0059483470000000005 0.007903259
10000 0.016096956 0.015923067 0.020519779
20000 0.041932594499999996 0.041580602 0.049146121
40000 0.064940117 0.064687506 0.08313508300000001
100000 0.22829510649999998 0.222281542 0.242694986
EOD
$line1 << EOD
250 0.00048065300000000005 0.000461591 0.000889324
500 0.00133014 0.001211808 0.001963838
1000 0.003850104 0.0034650559999999998 0.0047736079999999995
2000 0.0130909835 0.009909695 0.016378966999999998
4000 0.034955753 0.033002354 0.036993368
10000 0.164705144 0.164623402 0.16498259
20000 0.637295143 0.637233803 0.637649597
40000 2.653406125 2.653406125 2.653406125
100000 22.911099042 22.911099042 22.911099042
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'linear_svc (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'svc (dual)'
