# kexp plot; run `gnuplot cost_vs_n_polynomial_d_15_degree_2.gp` here to redraw cost_vs_n_polynomial_d_15_degree_2.svg
set terminal svg size 1000,774 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_polynomial_d_15_degree_2.svg'
set title 'time against n: polynomial d=15 degree=2 on cubic'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 11
set label 100 'dual_gd: alpha=0, iterations=50, tolerance=0' at screen 0.01, screen 0.1886 left font ',12'
set label 101 'kernel_ridge: lambda=0.001' at screen 0.01, screen 0.1602 left font ',12'
set label 102 'primal_gd: alpha=0, iterations=50, tolerance=0' at screen 0.01, screen 0.1318 left font ',12'
set label 103 'primal_ridge: lambda=0.001' at screen 0.01, screen 0.1034 left font ',12'
set label 104 'Crossover primal_gd / dual_gd: not resolved: times below 1 ms at n = 160 or 400.' at screen 0.01, screen 0.0749 left font ',12'
set label 105 'Crossover primal_ridge / kernel_ridge: not resolved: times below 1 ms at n = 160 or 400.' at screen 0.01, screen 0.0465 left font ',12'
set label 106 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0181 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('80' 80, '160' 160, '400' 400, '800' 800, '1600' 1600, '3200' 3200, '6400' 6400)
set logscale x
set logscale y
set arrow 1 from 136, graph 0 to 136, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'n = D = 136' at 136, graph 0.96 left offset 0.5,0 font ',12' textcolor rgb '#444444'
$line0 << EOD
80 5.723350000000001e-05 5.4774e-05 7.5504e-05
160 0.00018109799999999998 0.000175641 0.000280039
400 0.0011834035000000001 0.001139854 0.0015284119999999998
800 0.0050508445 0.004628447999999999 0.006230957999999999
1600 0.0672552245 0.028851465 0.112734422
3200 0.22441852899999998 0.215815131 0.242986878
6400 1.1580176949999998 1.109660393 1.207440432
EOD
$line1 << EOD
80 3.3019000000000004e-05 3.2673e-05 5.4233999999999996e-05
160 0.000116971 0.00011565800000000001 0.000208564
400 0.0009862105000000001 0.000915672 0.0012417180000000002
800 0.006073439999999999 0.005510254 0.007151932
1600 0.0650444195 0.037407552000000004 0.100462576
3200 0.2721472975 0.27084664599999997 0.29562321199999997
6400 1.951538655 1.921948233 1.984447966
EOD
$line2 << EOD
80 0.0001237835 0.00012263 0.000217624
160 0.00023081650000000002 0.000226077 0.00037934799999999995
400 0.0005841955 0.000537617 0.000987269
800 0.0012167610000000002 0.001158851 0.001550135
1600 0.00278563 0.0026552940000000003 0.0058049519999999995
3200 0.0061917840000000005 0.005955929 0.01842559
6400 0.011978315500000001 0.011286352 0.016815332
EOD
$line3 << EOD
80 0.0001183595 9.974800000000001e-05 0.000298797
160 0.00015249300000000002 0.000147057 0.00033384199999999994
400 0.00031130899999999996 0.00029839300000000004 0.000667794
800 0.0006667464999999999 0.000564878 0.001064124
1600 0.001821837 0.0010537629999999999 0.004672241000000001
3200 0.0023329685 0.0021366740000000003 0.017555133
6400 0.004464135 0.004270059 0.010842873
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'dual_gd (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_gd (primal)', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'primal_ridge (primal)'
