# kexp plot; run `gnuplot cost_vs_n_polynomial_d_5_degree_3.gp` here to redraw cost_vs_n_polynomial_d_5_degree_3.svg
set terminal svg size 1000,752 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_5_degree_3.svg'
set title 'time against n: polynomial d=5 degree=3 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 10
set label 100 'dual_gd: alpha=0, iterations=50, tolerance=0' at screen 0.01, screen 0.1649 left font ',12'
set label 101 'kernel_ridge: lambda=0.001' at screen 0.01, screen 0.1356 left font ',12'
set label 102 'primal_gd: alpha=0, iterations=50, tolerance=0' at screen 0.01, screen 0.1064 left font ',12'
set label 103 'primal_ridge: lambda=0.001' at screen 0.01, screen 0.0771 left font ',12'
set label 104 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0479 left font ',12'
set label 105 'The primal map''s dimension D = 56 is below every n drawn.' at screen 0.01, screen 0.0186 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
$line0 << EOD
80 8.5588e-05 5.6345e-05 0.00046506200000000003
160 0.000197253 0.000190119 0.000277926
400 0.0012246205 0.001155997 0.0015138740000000001
800 0.0052087995 0.004824958999999999 0.005644247
1600 0.02969936025 0.029432686000000003 0.03174651
3200 0.21909086 0.21019728399999998 0.237124788
6400 1.17329273475 1.160625092 1.188644781
EOD
$line1 << EOD
80 4.235650000000001e-05 2.8243e-05 0.000384168
160 0.000118625 0.000116641 0.000164682
400 0.0009309305 0.000872743 0.0011852219999999999
800 0.0059645900000000005 0.0056881499999999995 0.006414886
1600 0.03831450725 0.03684702 0.041843201999999996
3200 0.2715258465 0.261985021 0.295037743
6400 2.06079159325 2.04759301 2.074487884
EOD
$line2 << EOD
80 7.596449999999999e-05 6.2511e-05 0.000150596
160 0.000127622 0.000124435 0.000231537
400 0.00028231 0.000271602 0.000362004
800 0.0005446855 0.000489546 0.0006503609999999999
1600 0.0010540845 0.001043925 0.001241038
3200 0.002645891 0.00255824 0.0031933739999999997
6400 0.005628013 0.005525773 0.013524439000000001
EOD
$line3 << EOD
80 4.12085e-05 2.7792999999999996e-05 0.00015178900000000002
160 4.1915e-05 4.1126e-05 0.000136819
400 8.16355e-05 7.916e-05 0.00017808700000000003
800 0.00014656200000000004 0.00014269999999999997 0.000254001
1600 0.0002834515 0.000276943 0.000488805
3200 0.00056789 0.0005343899999999999 0.0012853040000000001
6400 0.0012429765 0.001120759 0.009437878
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
