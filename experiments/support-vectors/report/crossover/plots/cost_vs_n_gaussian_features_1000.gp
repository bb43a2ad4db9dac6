# kexp plot; run `gnuplot cost_vs_n_gaussian_features_1000.gp` here to redraw cost_vs_n_gaussian_features_1000.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_gaussian_features_1000.svg'
set title 'time against n: gaussian features=1000 on blobs'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'linear_svc: bias=regularized, c=1, epochs=1000, loss=hinge, tolerance=0.001' at screen 0.01, screen 0.0845 left font ',12'
set label 101 'svc: bias=regularized, c=1, cache_bytes=0, iterations=10000000, loss=hinge, shrinking=true, tolerance=0.001' at screen 0.01, screen 0.0525 left font ',12'
set label 102 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0204 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('250' 250, '500' 500, '1000' 1000, '2000' 2000, '4000' 4000, '10000' 10000, '20000' 20000, '40000' 40000, '100000' 100000)
set logscale x
set logscale y
set arrow 1 from 3408.1028961600964, graph 0 to 3408.1028961600964, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'crossover: n ≈ 3408 (871.4 … 1.672e+04)' at 3408.1028961600964, 0.05442276657156575 left point pt 7 ps 1.2 lc rgb '#444444' offset 1,1 font ',12' textcolor rgb '#222222'
set arrow 2 from 1000, graph 0 to 1000, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 2 'n = D = 1000' at 1000, graph 0.90 left offset 0.5,0 font ',12' textcolor rgb '#444444'
$line0 << EOD
250 0.0072437790000000005 0.003274644 0.012013446
500 0.005844691 0.005513923 0.008825769
1000 0.013956215000000001 0.009375412 0.022373399
2000 0.037118969999999994 0.032696397999999995 0.043885979
4000 0.061053364000000006 0.06005029 0.076930726
10000 0.504513163 0.504498083 0.504667306
20000 0.9729465460000001 0.9725995150000001 0.9770669770000001
40000 2.611649059 2.6106830519999997 2.6155746119999996
100000 6.217883892 6.216250286 6.219517498
EOD
$line1 << EOD
250 0.000605282 0.000583802 0.00082868
500 0.001368088 0.001231614 0.001851374
1000 0.006765556999999999 0.003853519 0.012286205
2000 0.0219587 0.015808741 0.028332443
4000 0.071483749 0.0714151 0.075557531
10000 0.32731244200000004 0.324549019 0.329195173
20000 1.14032004 1.1398024569999998 1.140347855
40000 4.0823158625 4.081919906 4.082711819
100000 33.992430016 33.992430016 33.992430016
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'linear_svc (primal)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'svc (dual)'
