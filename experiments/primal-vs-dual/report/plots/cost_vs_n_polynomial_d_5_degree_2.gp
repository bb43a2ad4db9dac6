# kexp plot; run `gnuplot cost_vs_n_polynomial_d_5_degree_2.gp` here to redraw cost_vs_n_polynomial_d_5_degree_2.svg
set terminal svg size 1000,708 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_5_degree_2.svg'
set title 'time against n: polynomial d=5 degree=2 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 8
set label 100 'dual_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.1130 left font ',12'
set label 101 'primal_gd: iterations = 50, tolerance = 0.' at screen 0.01, screen 0.0819 left font ',12'
set label 102 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0508 left font ',12'
set label 103 'The primal map''s dimension D = 21 is below every n drawn.' at screen 0.01, screen 0.0198 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
$line0 << EOD
80 6.40835e-05 6.1457e-05 0.0001652
160 0.0002360545 0.00021968 0.000417864
400 0.000941965 0.000875866 0.005784871
800 0.01588060925 0.015354563 0.025403629
1600 0.074507621 0.063849929 0.09188706899999999
3200 0.31606536799999996 0.29507047000000003 0.339809516
6400 2.42436126 2.367371244 2.48274211
EOD
$line1 << EOD
80 3.5254e-05 3.0952e-05 0.000166433
160 0.000130011 0.000115897 0.000384749
400 0.000908796 0.000833835 0.0059042520000000005
800 0.005221282 0.004853196000000001 0.017968457
1600 0.044549160500000004 0.040367383 0.056823830000000006
3200 0.30095998 0.292260756 0.320532436
6400 2.294373922 2.282638193 2.308145209
EOD
$line2 << EOD
80 4.0052499999999996e-05 3.4094e-05 0.00015623400000000002
160 7.271799999999999e-05 6.7072e-05 0.000191868
400 0.000182121 0.00017127899999999998 0.000339753
800 0.00041686 0.000335592 0.004698122
1600 0.0006927125 0.0006573430000000001 0.005094135
3200 0.0015107909999999998 0.001292311 0.006179839
6400 0.0028675935 0.002688694 0.007597776
EOD
$line3 << EOD
80 1.1753500000000002e-05 8.331e-06 0.00014859599999999997
160 1.4263e-05 1.26e-05 0.000142237
400 3.2625e-05 2.7448e-05 0.000199701
800 5.96865e-05 5.1073000000000004e-05 0.000375496
1600 0.000108063 9.734199999999999e-05 0.00044631499999999997
3200 0.00023652949999999998 0.00019385400000000003 0.000784902
6400 0.0003943965 0.000360646 0.001317536
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
